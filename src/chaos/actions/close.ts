// close: resets the connection instead of forwarding the request. Answers
// still owed to earlier requests on it are lost with it, as with any reset.
import { defineAction } from './action.js';

export default defineAction({
  type: 'close',
  layer: 'frame',
  summary: 'Resets the connection instead of forwarding the request',
  params: [],
  parse: () => ({}),
  fire: () => ({ outcome: { request: { kind: 'close' } } }),
});
