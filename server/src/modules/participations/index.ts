// The participations module's public surface: the admin review of a participation, and writeups.
export { ensureInstancesForParticipation } from './review.repository';
export { reviewParticipation } from './review.service';
export { archiveTimestamp, deleteWriteups, getWriteups, writeupArchive } from './writeups.service';
