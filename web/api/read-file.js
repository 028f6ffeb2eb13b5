// read-file.js: "#read-file" anywhere but Node (package.json "imports"; Node
// gets read-file.node.js): a browser, a worker, a bundle for either has no
// file system, so no built-ins (load.js then says why a file: URL cannot be
// read). Nothing here names a node: module, so no bundler is asked to find one.
export default null;
