// The union of two releases' schemas for one message: what a codec needs to
// read and write every version either release defines. Kafka never changes
// the wire form of a version once released, so where the two releases share
// a version they must agree on it field by field; the older release only
// contributes the versions the newer one removed (KIP-896 dropped v0-v2 of
// Produce, v0-v3 of Fetch, ...), and the fields that only those versions had.
//
// A field's versions in the union are taken version by version: from the
// newer schema where it defines the version, else from the older. Where both
// define it, both must say the same (present, nullable, tagged), or the merge
// fails naming the field: a codec must never guess. The one allowed
// difference is a tagged field the newer release added to old versions,
// which older readers skip by design (KIP-482).

/** "3+", "0-2", "none" -> [lo, hi] (hi = Infinity), or null for none. */
export function parseRange(s) {
  if (s === undefined || s === 'none') return null;
  if (s.endsWith('+')) return [Number(s.slice(0, -1)), Infinity];
  if (s.includes('-')) {
    const [a, b] = s.split('-').map(Number);
    return [a, b];
  }
  return [Number(s), Number(s)];
}

function inRange(r, v) {
  return r !== null && v >= r[0] && v <= r[1];
}

function formatRange(lo, hi, open) {
  if (open) return `${lo}+`;
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

/**
 * Fields renamed between the releases with their wire form unchanged, by
 * message and field path: the older name -> the newer one. The union keeps
 * the newer name (Kafka's own).
 */
export const RENAMED = new Map([
  // KIP-848: in v5+ the field carries the member epoch of a consumer group.
  ['TxnOffsetCommitRequest.GenerationId', 'GenerationIdOrMemberEpoch'],
]);

class MergeError extends Error {}

/**
 * The versions, within `union` valid versions, in which a property range
 * holds: the newer schema's answer where it defines v, else the older's.
 * Null when it holds in none; throws when the set is not one contiguous range.
 */
function mergeRange(path, what, older, newer, validOld, validNew) {
  const a = parseRange(older?.[what]);
  const b = parseRange(newer?.[what]);
  const lo = Math.min(validOld[0], validNew[0]);
  const hi = Math.max(validOld[1], validNew[1]);
  const held = [];
  for (let v = lo; v <= hi; v++) {
    const fromNew = inRange(validNew, v);
    const h = fromNew ? newer !== undefined && inRange(b, v) : older !== undefined && inRange(a, v);
    if (fromNew && inRange(validOld, v)) {
      const hOld = older !== undefined && inRange(a, v);
      const addedTag = older === undefined && newer?.taggedVersions !== undefined;
      if (h !== hOld && !addedTag) throw new MergeError(`${path}: ${what} differ at v${v} (${older?.[what] ?? 'absent'} vs ${newer?.[what] ?? 'absent'})`);
    }
    if (h) held.push(v);
  }
  if (held.length === 0) return undefined;
  const first = held[0];
  const last = held[held.length - 1];
  if (last - first + 1 !== held.length) throw new MergeError(`${path}: ${what} are not one range in the union (${held.join(',')})`);
  // Open-ended when the newer schema's range is and reaches its last version.
  const open = last === validNew[1] && b !== null && b[1] === Infinity;
  return formatRange(first, last, open);
}

function mergeFields(path, older, newer, validOld, validNew) {
  const renamed = (f) => RENAMED.get(`${path}.${f.name}`) ?? f.name;
  const oldByName = new Map(older.map((f) => [renamed(f), f]));
  const newNames = new Set(newer.map((f) => f.name));
  const sharedOld = older.map(renamed).filter((n) => newNames.has(n));
  const sharedNew = newer.map((f) => f.name).filter((n) => oldByName.has(n));
  if (sharedOld.join() !== sharedNew.join()) throw new MergeError(`${path}: the shared fields are in another order (${sharedOld} vs ${sharedNew})`);

  // The newer order, with each field only the older schema has after the
  // field it followed there.
  const order = newer.map((f) => f.name);
  let after = -1;
  for (const f of older) {
    const name = renamed(f);
    const at = order.indexOf(name);
    if (at >= 0) after = at;
    else order.splice(++after, 0, name);
  }
  const newByName = new Map(newer.map((f) => [f.name, f]));
  return order.map((name) => mergeField(`${path}.${name}`, oldByName.get(name), newByName.get(name), validOld, validNew, name));
}

function mergeField(path, a, b, validOld, validNew, name) {
  const type = b?.type ?? a.type;
  if (a && b && a.type !== b.type) throw new MergeError(`${path}: type ${a.type} vs ${b.type}`);
  if (a && b && a.tag !== b.tag) throw new MergeError(`${path}: tag ${a.tag} vs ${b.tag}`);
  if (a && b && String(a.default) !== String(b.default)) throw new MergeError(`${path}: default ${a.default} vs ${b.default}`);
  const field = { ...a, ...b, name, type };
  const versions = mergeRange(path, 'versions', a, b, validOld, validNew);
  if (versions === undefined) throw new MergeError(`${path}: in no version of the union`);
  field.versions = versions;
  for (const what of ['nullableVersions', 'taggedVersions']) {
    const r = mergeRange(path, what, a, b, validOld, validNew);
    if (r === undefined) delete field[what];
    else field[what] = r;
  }
  if (a?.flexibleVersions !== b?.flexibleVersions && a && b) throw new MergeError(`${path}: flexibleVersions ${a.flexibleVersions} vs ${b.flexibleVersions}`);
  if (a?.fields || b?.fields) field.fields = mergeFields(path, a?.fields ?? [], b?.fields ?? [], validOld, validNew);
  return field;
}

/**
 * One schema with every version of `older` and `newer` (the same message of
 * two releases, JSON as Kafka's files hold it). Throws when they disagree on a
 * version both define.
 */
export function unionSchema(older, newer) {
  const path = newer.name;
  if (older.name !== newer.name || older.type !== newer.type || older.apiKey !== newer.apiKey) {
    throw new MergeError(`${path}: not the same message (${older.name} ${older.type} ${older.apiKey})`);
  }
  if (older.flexibleVersions !== newer.flexibleVersions) {
    throw new MergeError(`${path}: flexibleVersions ${older.flexibleVersions} vs ${newer.flexibleVersions}`);
  }
  const validOld = parseRange(older.validVersions);
  const validNew = parseRange(newer.validVersions);
  if (validNew[1] < validOld[1]) throw new MergeError(`${path}: the newer release ends below the older`);
  const lo = Math.min(validOld[0], validNew[0]);
  const merged = { ...newer, validVersions: formatRange(lo, validNew[1], false) };
  merged.fields = mergeFields(path, older.fields, newer.fields, validOld, validNew);
  const oldStructs = new Map((older.commonStructs ?? []).map((s) => [s.name, s]));
  const newStructs = new Map((newer.commonStructs ?? []).map((s) => [s.name, s]));
  const names = [...new Set([...newStructs.keys(), ...oldStructs.keys()])];
  if (names.length) {
    merged.commonStructs = names.map((n) => ({
      ...oldStructs.get(n),
      ...newStructs.get(n),
      fields: mergeFields(`${path}.${n}`, oldStructs.get(n)?.fields ?? [], newStructs.get(n)?.fields ?? [], validOld, validNew),
    }));
  }
  return merged;
}
