// multi-head-it.props.js: the attributes of <attention-multi-head-it>
// (props.js says how they are read): adjective="tired|wide", heads="1|2",
// tip="-2..2", off="", "1", "2" or "1,2" (heads switched off).
export const props = {
  adjective: { type: 'enum', values: ['tired', 'wide'], default: 'tired' },
  heads: { type: 'enum', values: ['1', '2'], default: '2' },
  tip: { type: 'number', default: 0, min: -2, max: 2 },
  off: { type: 'enum', values: ['', '1', '2', '1,2'], default: '' },
};
