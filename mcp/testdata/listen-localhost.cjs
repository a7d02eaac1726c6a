// Preloaded with `node --require` by the tests: a server that listens on a
// port alone (all interfaces) is bound to 127.0.0.1 instead.
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  const portOnly = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
  if (portOnly && typeof args[1] !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
