// example-data.strings.js: the messages of example-data.js's checks (format:
// i18n.js). Not a figure's table: the tables of figures that take a page's
// example spread it into theirs. {field} and {like} are the JSON's own field
// names and stay as the page wrote them.
export default {
  en: {
    exampleNotObject: 'it must be a JSON object with the fields {fields}',
    exampleList: '"{field}" must be a list of {min} to {max} entries, it has {got}',
    exampleCount: '"{field}" must have {want} entries, as many as "{like}", it has {got}',
    exampleNumbers: '{where} must be {want} numbers from {lo} to {hi}',
    exampleLabel: '{where} must be a text of 1 to {max} letters (or up to {half} Chinese characters)',
    exampleRepeat: '{where} repeats an earlier one',
  },
  zh: {
    exampleNotObject: '它必须是一个 JSON 对象，包含这些字段：{fields}',
    exampleList: '“{field}”必须是含 {min} 到 {max} 项的列表，现在有 {got} 项',
    exampleCount: '“{field}”必须和“{like}”一样有 {want} 项，现在有 {got} 项',
    exampleNumbers: '{where} 必须是 {want} 个介于 {lo} 和 {hi} 之间的数',
    exampleLabel: '{where} 必须是 1 到 {max} 个字母（或最多 {half} 个汉字）的文字',
    exampleRepeat: '{where} 与前面的某一项重复',
  },
};
