import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ensureWelcomePost } from './posts.service';

/** Start-up work of the posts module: the welcome post on a database without posts. */
export default fp(
  async function posts(app: FastifyInstance) {
    app.addHook('onReady', async () => {
      if (await ensureWelcomePost(app.db)) app.log.info('Created the welcome post');
    });
  },
  { name: 'posts', dependencies: ['db'] },
);
