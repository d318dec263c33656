import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { bus } from '../../lib/bus';
import { NoticeLists } from '../../modules/notices';

declare module 'fastify' {
  interface FastifyInstance {
    noticeLists: NoticeLists;
  }
}

/** The players' notice lists (modules/notices/notice-lists.ts), dropped when this process changes a notice. */
async function noticeLists(app: FastifyInstance) {
  const lists = new NoticeLists(app.db);
  app.decorate('noticeLists', lists);
  const onChange = ({ gameId }: { gameId: number }) => lists.forget(gameId);
  bus.on('noticePublished', onChange);
  bus.on('noticeRemoved', onChange);
  app.addHook('onClose', async () => {
    bus.off('noticePublished', onChange);
    bus.off('noticeRemoved', onChange);
  });
}

export default fp(noticeLists, { name: 'notice-lists', dependencies: ['db'] });
