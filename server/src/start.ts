import { loadEnv } from './env';
import { exitOnStartupError, main } from './main';
import { ensureClientBuilt } from './tools/client-build';

/**
 * `npm start`: builds the web client when it is missing or older than its sources, then starts the
 * server. Everything else (migrations, defaults) happens in `main`.
 */
try {
  const env = loadEnv();
  ensureClientBuilt(env.distDir, (line) => process.stdout.write(`${line}\n`));
  main(env).catch(exitOnStartupError);
} catch (error) {
  exitOnStartupError(error);
}
