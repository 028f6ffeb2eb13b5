// example-data.strings.zh.js: example-data.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  exampleNotObject: '它必须是一个 JSON 对象，包含这些字段：{fields}',
  exampleList: '“{field}”必须是含 {min} 到 {max} 项的列表，现在有 {got} 项',
  exampleCount: '“{field}”必须和“{like}”一样有 {want} 项，现在有 {got} 项',
  exampleNumbers: '{where} 必须是 {want} 个介于 {lo} 和 {hi} 之间的数',
  exampleLabel: '{where} 必须是 1 到 {max} 个字母（或最多 {half} 个汉字）的文字',
  exampleRepeat: '{where} 与前面的某一项重复',
};
