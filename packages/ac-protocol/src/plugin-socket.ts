// Paddock's end of the UDP plugin link: listen where acServer sends (UDP_PLUGIN_ADDRESS), send
// commands to where it listens (UDP_PLUGIN_LOCAL_PORT). Unreadable datagrams are reported, not
// thrown; datagrams from any other host are dropped.
import dgram from 'node:dgram';
import {
  decodeServerMessage,
  encodeMessage,
  type AcCommand,
  type AcDecodeError,
  type AcServerMessage,
} from './codec';

export interface AcPluginSocketOptions {
  /** Address and port to listen on (the port of UDP_PLUGIN_ADDRESS); port 0 picks a free one. */
  listen: { host: string; port: number };
  /** acServer's command port: its host and UDP_PLUGIN_LOCAL_PORT. */
  server: { host: string; port: number };
  onMessage: (message: AcServerMessage) => void;
  onBadDatagram?: (error: AcDecodeError, from: string) => void;
  /** Every datagram from the server as it came, before decoding (the feed recorder). */
  onDatagram?: (datagram: Buffer) => void;
}

export interface AcPluginSocket {
  /** The port actually listened on. */
  port: number;
  send(command: AcCommand): Promise<void>;
  close(): Promise<void>;
}

export async function openAcPluginSocket(options: AcPluginSocketOptions): Promise<AcPluginSocket> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (datagram, from) => {
    if (from.address !== options.server.host) return;
    options.onDatagram?.(datagram);
    const result = decodeServerMessage(datagram);
    if (result.ok) options.onMessage(result.message);
    else options.onBadDatagram?.(result.error, `${from.address}:${from.port}`);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.listen.port, options.listen.host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return {
    port: socket.address().port,
    send: (command) =>
      new Promise<void>((resolve, reject) =>
        socket.send(encodeMessage(command), options.server.port, options.server.host, (e) =>
          e ? reject(e) : resolve(),
        ),
      ),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
