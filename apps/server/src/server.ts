import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const { app, playApp } = await buildApp(config);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal}: closing`);
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ port: config.port, host: config.host });
await playApp.listen({ port: config.playPort, host: config.host });
app.log.info(`Reskin Studio on http://localhost:${config.port} (play origin ${config.playOrigin})`);
