// soft-dictionary.props.js: the attributes of <attention-soft-dictionary>
// (props.js says how they are read): temperature, query="x,y".
import { parseQuery } from './soft-dictionary.model.js';

export const DEFAULT_QUERY = '0.35,-0.15';

export const props = {
  temperature: { type: 'number', default: 0.2, min: 0.001, max: 1000 },
  query: { type: 'string', default: DEFAULT_QUERY, normalize: (t) => parseQuery(t)?.join(',') ?? null },
};
