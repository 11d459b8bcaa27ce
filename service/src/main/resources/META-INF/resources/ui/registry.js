/*
 * Where the views of the screen meet: every file of the page adds itself here, and app.js only asks this registry.
 *
 * - view(spec): a view of its own (a section of the page, or a part that loads and renders with the page's poll).
 *     spec.name     its name (unique);
 *     spec.section  optional { id, title, hint, after }: the <section> app.js creates for it in <main> (after the
 *                   section with id `after`, else last) — its body is the element with id `${id}-body`;
 *     spec.load(next, base)  optional, a promise run with every poll: reads what the view shows and puts it into
 *                   `next` (assigned to `ui` once every view has loaded, so the page never shows half a round);
 *                   `base` holds what every view may use: { deployments, types, manifests, fleets };
 *     spec.render() renders it from `ui` (through core.render, which rebuilds only what changed);
 *     spec.start(shared) optional, run once the signed-in user is known (e.g. to add a "New …" button).
 * - hook(name, fn): adds to a place inside another view; hooked(name, ...args) is how that view asks (each fn
 *   answers nodes, or for the load hooks a promise). The places are listed in HOOKS with what they are given.
 * - plugin(install): the older way (classic scripts, window.qawk.plugin): install(shared) runs once the user is known.
 */

/** Every place a view calls hooked(name, …), with its arguments. */
const HOOKS = {
  load: 'types → promise, with every poll',
  loadSystem: 'typeId, system → promise, when a system’s view opens and with every poll while it is open',
  typesKey: '() → anything; added to the types section’s key so it is rebuilt when the module’s data changes',
  typeFacts: 't → nodes in the type card’s facts',
  typeCard: 't → nodes under the type card’s census bar',
  systemActions: 't, s → nodes in the system row’s last cell',
  systemDetail: 't, s → nodes in the system’s view (under its devices)',
  drawerLoad: 'deployment → promise, with every poll while the drawer is open on it',
  drawerKey: '() → anything; added to the drawer’s key',
  drawerHead: 'deployment → nodes in the drawer’s head, under its actions',
  deploymentActions: 'deployment, where ("dep" or "drawer") → buttons beside Start/Pause/Resume/Abort',
  runActions: 'deployment, run → buttons beside Take again/Roll back in a system’s card in the drawer',
  runDetail: 'deployment, run → nodes at the end of a system’s card in the drawer',
  channelActions: 'channel → buttons under the channel’s row’s “Next”',
};

const hooks = Object.fromEntries(Object.keys(HOOKS).map(k => [k, []]));
const views = [];
const plugins = [];

export function hook(name, fn) {
  if (!hooks[name]) throw new Error(`no hook ${name}: the places are ${Object.keys(HOOKS).join(', ')}`);
  hooks[name].push(fn);
}

export function hooked(name, ...args) {
  return hooks[name].map(fn => fn(...args));
}

export function view(spec) {
  if (views.some(v => v.name === spec.name)) throw new Error(`view ${spec.name} added twice`);
  views.push(spec);
}

/** Renders the view named {@code name} again: one view asks another without importing it (no circle). */
export function renderView(name) {
  const v = views.find(x => x.name === name);
  if (v) v.render();
}

export function allViews() {
  return views.slice();
}

export function plugin(install) {
  plugins.push(install);
}

export function allPlugins() {
  return plugins.slice();
}

/** The page's refresh (set by app.js): what a view calls after a write, so the page shows its effect at once. */
let refreshPage = async () => {};

export function onRefresh(fn) {
  refreshPage = fn;
}

export function refresh() {
  return refreshPage();
}
