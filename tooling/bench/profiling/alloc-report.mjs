// Shared by alloc-stdio.mjs and heap-sample-hook.mjs: self bytes per unit of each allocating function in a
// sampling heap profile, the top TOP (default 30) printed.
export function printSites(label, profile, units, gcs, print) {
  const self = new Map();
  const walk = (node) => {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'}  ${f.url.replace(/^.*\/(packages|node_modules)\//, '').replace('/dist/index.js', '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  print(`${label}: ${(total / units).toFixed(0)} B sampled per call, ${gcs} GCs in ${units} calls`);
  for (const [key, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) print(`${(bytes / units).toFixed(0).padStart(7)} B  ${key}`);
}
