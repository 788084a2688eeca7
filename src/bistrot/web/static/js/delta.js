// @ts-check
// What changed between two JSON values, applied: the page's half of bistrot.tablecore.delta
// (docs/protocol.md, "Changes"). A replay's steps each carry the patch from the view before to
// the view after, not that whole view (a long match's views repeat its whole history).

/** `old` with `patch` applied, as a new value (`old` is never changed; members the patch does
 * not touch are shared with it).
 * @example patched({a: [1, 2], b: 0}, {in: {a: {append: [3]}}, del: ["b"]}) -> {a: [1, 2, 3]} */
export function patched(old, patch) {
  if (Array.isArray(old)) {
    const items = old.slice();
    for (const [index, value] of Object.entries(patch.set || {})) items[Number(index)] = value;
    for (const [index, inner] of Object.entries(patch.in || {})) items[Number(index)] = patched(items[Number(index)], inner);
    if ("len" in patch) items.length = patch.len;
    if (patch.append) items.push(...patch.append);
    return items;
  }
  const out = { ...old };
  for (const key of patch.del || []) delete out[key];
  Object.assign(out, patch.set || {});
  for (const [key, inner] of Object.entries(patch.in || {})) out[key] = patched(out[key], inner);
  return out;
}
