// refused(parseExample, strings): an assertion that parseExample(data)
// throws an ExampleError with `key` (and `args`, when given) whose message
// the figure's string table can say in Chinese too.
import assert from 'node:assert/strict';
import { ExampleError } from '../../web/kit/example.js';
import { translator } from '../../web/kit/i18n.js';

export const refusedBy = (parseExample, strings) => (data, key, args) => assert.throws(() => parseExample(data), (err) => {
  assert.ok(err instanceof ExampleError, String(err));
  assert.equal(err.key, key);
  if (args) assert.deepEqual(err.args, args);
  assert.doesNotThrow(() => translator(strings.zh, 'zh')(err.key, err.args), 'the message is in the table');
  return true;
});
