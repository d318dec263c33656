// The submissions module's public surface: the intake of flag submissions and the judge's queue.
export { FlagChecker, unjudgedIds } from './checker';
export { submissionIntake } from './intake.repository';
