// example.js: the error a figure's useExample(data) throws when a page's own
// example will not do. It carries a key of the figure's string table and the
// arguments that fill it (say, {index: 2}), so the figure can say what is
// wrong in the reader's language. Pure, so models can throw it in Node tests.
export class ExampleError extends Error {
  constructor(key, args = {}) {
    super(`${key} ${JSON.stringify(args)}`);
    this.name = 'ExampleError';
    this.key = key;
    this.args = args;
  }
}
