// loading.strings.js: the few words a figure says before its string tables
// have loaded, or when they cannot load (format: i18n.js). Both languages
// are here, in the autoloader: everything else is loaded in the page's
// language only (i18n.js), so keep this table tiny.
export default {
  en: {
    loading: 'Loading figure\u2026',
    couldNotStart: 'This figure could not start: {message}',
    wordsNotLoaded: 'This figure\u2019s English words could not load ({message}); it stays as it was.',
  },
  zh: {
    loading: '图表加载中\u2026',
    couldNotStart: '这个图表无法启动：{message}',
    wordsNotLoaded: '这个图表的中文文字无法加载（{message}），图表保持原样。',
  },
};
