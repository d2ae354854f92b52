// Under wine (the packaged agent's smoke test on Linux, not a venue's PC): wine 8 refuses TCP
// keep-alive on a socket that is still connecting, which fetch (undici) asks for at once, so every
// call would fail with "connect UNKNOWN". There the request waits for the connection first.
// Real Windows is untouched. Imported first by cli.ts.
import net from 'node:net';

const underWine = process.platform === 'win32' && Boolean(process.env.WINELOADER);

if (underWine) {
  const setKeepAlive = net.Socket.prototype.setKeepAlive;
  net.Socket.prototype.setKeepAlive = function (
    this: net.Socket,
    enable?: boolean,
    delay?: number,
  ) {
    if (this.connecting) {
      this.once('connect', () => setKeepAlive.call(this, enable, delay));
      return this;
    }
    return setKeepAlive.call(this, enable, delay);
  };
}
