// @theia/cli depends on puppeteer; its postinstall would download a browser, which these machines
// (and most cloud workspaces) cannot fetch. Tests drive Debian's chromium through playwright-core.
module.exports = { skipDownload: true };
