// An independent RFC 8785 canonicalizer for cross-checking the Go one: ECMAScript's own
// JSON.stringify does the number and string forms, Array.prototype.sort the UTF-16 key
// order. Reads a JSON array of JSON texts on stdin, writes one canonical text per line.
'use strict';
function canon(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
}
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const out = JSON.parse(input).map((text) => canon(JSON.parse(text)));
  process.stdout.write(out.join('\n') + '\n');
});
