/**
 * The two parts of a catalogue as vite.config.ts builds them (lib/catalogue-parts.ts): message id →
 * message. (Under Vitest, which does not run that plugin, each import is the whole catalogue.)
 */
declare module '*.json?part=start' {
  const catalogue: Record<string, string>;
  export default catalogue;
}
declare module '*.json?part=later' {
  const catalogue: Record<string, string>;
  export default catalogue;
}
