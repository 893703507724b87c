package root

// VersionLine is versionLine, for the tests.
var VersionLine = versionLine
