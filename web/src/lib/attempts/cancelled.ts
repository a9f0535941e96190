// Support's cancellation of an attempt (issue 27; events/src/flow/support.rs): every flow's
// page receives `attempt.cancelled` and shows why, in the words the server's view uses.

export const CANCELLED_EVENT = 'attempt.cancelled';

export const CANCELLED_MESSAGE = 'Esta tentativa foi encerrada pelo nosso atendimento. Comece de novo quando quiser.';
