// A real S3 protocol server (s3rver) as a process of its own, for the tests and the bench: started by
// s3-server.ts as `node --openssl-legacy-provider s3rver-process.mjs <folder> <bucket> [port]` (a port to start
// again where a stopped one listened, keeping its folder: an outage of the store). The legacy provider is
// for s3rver's continuation tokens (DES), which Node's OpenSSL 3 refuses by default: without it, any listing
// longer than one page answers 500. Prints {"port":...} once it listens; stops on SIGTERM.
import S3rver from 's3rver';

const [directory, bucket, wantedPort = '0'] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(wantedPort),
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
