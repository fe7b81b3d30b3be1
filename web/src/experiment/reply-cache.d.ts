// Types of ./reply-cache.js (declared in ./experiment.d.ts).
export { FileReplyCache } from './experiment.js';
