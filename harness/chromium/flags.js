'use strict'

// The flags every Chromium of h2bench's starts with: our certificate trusted
// by its SPKI hash, QUIC from the first request for the HTTP/3 lanes, a
// throw-away profile. Two sets: the user's own Chrome (chromeArgs: a window,
// the page's URL, --no-sandbox only as root) and the headless ones that
// measure (measurementArgs: always --no-sandbox, QUIC off when there is no
// h3 lane, and off every network the benchmark does not ask for).

// Chrome refuses to start as root unless its sandbox is off.
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

// The origins (host:port) of the HTTP/3 lanes, which Chrome is told to
// reach over QUIC from the first request: without it Chrome would first ask
// over TCP and switch only after an Alt-Svc answer (and never for an IP
// address it has no QUIC record of).
function quicOrigins (lanes = []) {
  return lanes.filter(l => l.protocol === 'h3' && l.url).map(l => new URL(l.url).host)
}

// --origin-to-force-quic-on for those origins; [] when there are none.
function quicArgs (lanes) {
  const origins = quicOrigins(lanes)
  return origins.length ? [`--origin-to-force-quic-on=${origins.join(',')}`] : []
}

// Flags that make Chrome treat our self-signed certificate as valid (so it
// caches, and shows no interstitial; QUIC needs it too) in a throw-away
// profile, and use QUIC for the HTTP/3 lanes among `lanes`.
function chromeArgs ({ spki, userDataDir, url, lanes = [], root = isRoot() }) {
  return [
    `--ignore-certificate-errors-spki-list=${spki}`,
    ...quicArgs(lanes),
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    ...(root ? ['--no-sandbox'] : []),
    url
  ]
}

// The headless measuring Chromium's flags: trusting the lanes' certificate
// the way the printed Chrome command does (SPKI list); `lanes`' HTTP/3 lanes
// reached over QUIC from the first request (--origin-to-force-quic-on), and
// without any, QUIC off altogether, so no lane is ever upgraded behind the
// benchmark's back. The flags after them keep the browser off networks the
// benchmark does not ask for; `extra` after those. (driverArgs go before
// them, the profile directory after.) `protocolArgs`: a site's run forcing
// one protocol (harness/force-protocol.js) instead of the lanes' QUIC flags;
// `spki` null: no certificate trusted beyond the system's (a public site).
function measurementArgs ({ spki, lanes = [], extra = [], protocolArgs = null }) {
  return [
    ...(spki ? [`--ignore-certificate-errors-spki-list=${spki}`] : []),
    ...(protocolArgs || (quicArgs(lanes).length ? quicArgs(lanes) : ['--disable-quic'])),
    '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ...extra
  ]
}

// The switches the driver gives the measuring Chromium before measurementArgs.
// puppeteer-core drives it (harness/chromium/headless.js) with its own
// defaults off (ignoreDefaultArgs) and these instead: the switches
// playwright-core 1.65.1, the driver before it, passed (its chromiumSwitches,
// then its headless ones and --no-sandbox), word for word, so the browser
// measured since the switch is the one the committed studies measured (among
// them --disable-back-forward-cache, --disable-features=PaintHolding and
// HttpsUpgrades, which puppeteer's defaults lack; and none of puppeteer's own,
// such as --enable-automation or its --disable-features=AcceptCHFrame).
// Some are no-ops for Chromium on Linux (Edge's, Windows', macOS'): kept so
// the command line stays the one it was.
const DRIVER_SWITCHES = [
  '--disable-field-trial-config', '--disable-background-networking', '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows', '--disable-back-forward-cache', '--disable-breakpad',
  '--disable-component-extensions-with-background-pages', '--disable-component-update', '--no-default-browser-check',
  '--disable-default-apps', '--disable-dev-shm-usage', '--disable-edgeupdater', '--disable-extensions',
  '--disable-features=' + [
    'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
    'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
    'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
    'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion'
  ].join(','),
  '--enable-features=CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies',
  '--allow-pre-commit-input', '--disable-hang-monitor', '--disable-ipc-flooding-protection', '--disable-popup-blocking',
  '--disable-prompt-on-repost', '--disable-renderer-backgrounding', '--disable-updater-scheduler', '--force-color-profile=srgb',
  '--metrics-recording-only', '--no-first-run', '--password-store=basic', '--use-mock-keychain', '--no-service-autorun',
  '--disable-search-engine-choice-screen', '--unsafely-disable-devtools-self-xss-warnings', '--enable-unsafe-swiftshader',
  '--edge-skip-compat-layer-relaunch', '--disable-stack-profiler', '--disable-infobars', '--disable-sync', '--do-not-de-elevate'
]
const HEADLESS_SWITCHES = [
  '--headless', '--hide-scrollbars', '--mute-audio',
  '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4'
]
function driverArgs ({ headless = true } = {}) {
  return [...DRIVER_SWITCHES, ...(headless ? HEADLESS_SWITCHES : []), '--no-sandbox']
}

// Chromium's net-log into `file` (the h3 study reads it: bench/cells/net-log.js).
const netLogArgs = file => [`--log-net-log=${file}`, '--net-log-capture-mode=Default']

module.exports = { isRoot, quicOrigins, quicArgs, chromeArgs, measurementArgs, driverArgs, netLogArgs }
