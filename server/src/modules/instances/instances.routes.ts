import type { Handlers } from '../../contract/handlers';
import { sendEmpty } from '../../lib/reply';
import { requireUser } from '../../plugins/app/auth';

/** Player containers, the admin list and force-destroy, test containers (reference §2.2, §2.4, §2.5, §5.9). */
export const instancesHandlers: Handlers = {
  async gameCreateContainer(request) {
    const { id, challengeId } = request.params;
    const user = requireUser(request);
    const info = await request.server.instances.create(user, id, challengeId);
    request.log.info({ status: 'Success' }, `${user.userName} started a container for challenge ${challengeId}`);
    return info;
  },
  async gameExtendContainerLifetime(request) {
    const { id, challengeId } = request.params;
    return request.server.instances.extend(requireUser(request), id, challengeId);
  },
  async gameDeleteContainer(request, reply) {
    const { id, challengeId } = request.params;
    const user = requireUser(request);
    await request.server.instances.destroy(user, id, challengeId);
    request.log.info({ status: 'Success' }, `${user.userName} destroyed a container of challenge ${challengeId}`);
    return sendEmpty(reply);
  },
  async adminInstances(request) {
    return request.server.instances.list(request.query);
  },
  async adminDestroyInstance(request, reply) {
    await request.server.instances.destroyById(request.params.id);
    request.log.info({ status: 'Success' }, `container ${request.params.id} destroyed by an admin`);
    return sendEmpty(reply);
  },
  async editCreateTestContainer(request) {
    const { id, cId } = request.params;
    return request.server.instances.startTest(id, cId, requireUser(request));
  },
  async editDestroyTestContainer(request, reply) {
    const { id, cId } = request.params;
    await request.server.instances.stopTest(id, cId);
    return sendEmpty(reply);
  },
};
