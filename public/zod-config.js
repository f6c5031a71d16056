/*
 * zod's configuration, set before zod itself loads (index.html runs this deferred classic script
 * before the app's module): zod compiles no parser with `new Function` and never probes whether it
 * may. The server's Content-Security-Policy has no 'unsafe-eval', so the probe, although zod
 * catches its failure, is reported by the browser as a violation (issue #20 item 21). zod 4 reads
 * this object when its core module is evaluated, which happens before any line of the app's entry
 * chunk can run: a schema built at the top of an eagerly loaded chunk would otherwise probe first.
 */
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
