// The /version document. The API level is what clients compare for skew, so it names the upstream
// minor release whose API this server serves.

export const API_MAJOR = '1';
export const API_MINOR = '35';

export function versionDocument(): Record<string, string> {
  return {
    major: API_MAJOR,
    minor: API_MINOR,
    emulationMajor: API_MAJOR,
    emulationMinor: API_MINOR,
    minCompatibilityMajor: API_MAJOR,
    minCompatibilityMinor: String(Number(API_MINOR) - 1),
    gitVersion: `v${API_MAJOR}.${API_MINOR}.0`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
