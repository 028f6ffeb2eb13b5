// example-data.strings.en.js: the messages of example-data.js's checks (format:
// i18n.js). Not a figure's table: the tables of figures that take a page's
// example spread it into theirs. {field} and {like} are the JSON's own field
// names and stay as the page wrote them.
// In English; example-data.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  exampleNotObject: 'it must be a JSON object with the fields {fields}',
  exampleList: '"{field}" must be a list of {min} to {max} entries, it has {got}',
  exampleCount: '"{field}" must have {want} entries, as many as "{like}", it has {got}',
  exampleNumbers: '{where} must be {want} numbers from {lo} to {hi}',
  exampleLabel: '{where} must be a text of 1 to {max} letters (or up to {half} Chinese characters)',
  exampleRepeat: '{where} repeats an earlier one',
};
