'use strict'

// bench:page's name in every record it writes, apart so that its report (bench/report/page-cost/report.js) can check a
// results.json without loading what measures (the lanes, the browser driver).
module.exports = { TOOL: 'h2bench page cost' }
