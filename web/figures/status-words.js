// status-words.js: the status line of a measuring figure (cost, efficient)
// is kept as [key, args] pairs and worded only when drawn, so it follows a
// change of language mid-sweep; measuring.js may set a worded string.
export const statusWords = (t, status = '') => (typeof status === 'string' ? status : status.map(([key, args]) => t(key, args)).join(''));
