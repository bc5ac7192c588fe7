exports.DEFAULT_METHOD = 'GET'
exports.DEFAULT_HOST = 'localhost'
exports.MAX_PRIORITY_STREAMS = 100
exports.DEFAULT_MAX_CHUNK = 8 * 1024
// h2bench: a stream write completes once its connection's socket holds at
// most this much (the `maxQueued` connection option; stream.js _write).
exports.DEFAULT_MAX_QUEUED = 512 * 1024
