// blackhole: cuts the connection the matching request came on off, both
// ways: the request and everything after it are swallowed unread, and
// nothing (not even answers owed to earlier requests) reaches the client,
// as in a network partition. Match a client id or a node to cut off a
// client or a node: each of its connections goes dark at its next request.
// When the rule is removed the cut-off connections are reset (a healed
// partition does not bring TCP state back) and clients reconnect.
import { defineAction } from './action.js';

export default defineAction({
  type: 'blackhole',
  layer: 'frame',
  summary: 'Cuts the connection off both ways (nothing in, nothing out) until the rule is removed, then resets it',
  params: [],
  parse: () => ({}),
  fire: () => ({ outcome: { request: { kind: 'blackhole' } } }),
});
