import { describe, expect, it } from 'vitest';
import { buildChildEnvironment, getDefaultEnvironment } from './default-environment.js';

const posixSource = {
  HOME: '/home/ada',
  LOGNAME: 'ada',
  PATH: '/usr/bin:/bin',
  SHELL: '/bin/bash',
  TERM: 'xterm',
  USER: 'ada',
  AWS_SECRET_ACCESS_KEY: 'do-not-leak',
  BASH_FUNC_x: '() { echo pwned; }',
};

const windowsSource = {
  Path: 'C:\\Windows\\system32;C:\\Program Files\\nodejs',
  PATHEXT: '.COM;.EXE;.BAT;.CMD',
  ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  windir: 'C:\\Windows',
  SystemRoot: 'C:\\Windows',
  ProgramFiles: 'C:\\Program Files',
  'ProgramFiles(x86)': 'C:\\Program Files (x86)',
  ProgramW6432: 'C:\\Program Files',
  ProgramData: 'C:\\ProgramData',
  APPDATA: 'C:\\Users\\ada\\AppData\\Roaming',
  USERPROFILE: 'C:\\Users\\ada',
  GITHUB_TOKEN: 'do-not-leak',
};

describe('getDefaultEnvironment', () => {
  it('keeps the POSIX allow-list and nothing else', () => {
    expect(getDefaultEnvironment({ platform: 'linux', source: posixSource })).toEqual({
      HOME: '/home/ada',
      LOGNAME: 'ada',
      PATH: '/usr/bin:/bin',
      SHELL: '/bin/bash',
      TERM: 'xterm',
      USER: 'ada',
    });
  });

  it('keeps PATHEXT, COMSPEC, WINDIR, SYSTEMROOT and the PROGRAMFILES family on Windows, in their own spelling', () => {
    const env = getDefaultEnvironment({ platform: 'win32', source: windowsSource });
    expect(env).toEqual({
      Path: windowsSource.Path,
      PATHEXT: windowsSource.PATHEXT,
      ComSpec: windowsSource.ComSpec,
      windir: windowsSource.windir,
      SystemRoot: windowsSource.SystemRoot,
      ProgramFiles: windowsSource.ProgramFiles,
      'ProgramFiles(x86)': windowsSource['ProgramFiles(x86)'],
      ProgramW6432: windowsSource.ProgramW6432,
      ProgramData: windowsSource.ProgramData,
      APPDATA: windowsSource.APPDATA,
      USERPROFILE: windowsSource.USERPROFILE,
    });
  });

  it('skips values that look like exported shell functions', () => {
    const env = getDefaultEnvironment({ platform: 'linux', source: { PATH: '/bin', SHELL: '() { :; }; echo pwned' } });
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('reads process.env on the current platform by default', () => {
    const env = getDefaultEnvironment();
    if (process.env.PATH !== undefined && process.platform !== 'win32') expect(env.PATH).toBe(process.env.PATH);
    expect(Object.keys(env).every((name) => name !== 'npm_config_user_agent')).toBe(true);
  });
});

describe('buildChildEnvironment', () => {
  it('puts user variables on top of the defaults', () => {
    const env = buildChildEnvironment({ PATH: '/opt/bin', API_KEY: 'k' }, { platform: 'linux', source: posixSource });
    expect(env.PATH).toBe('/opt/bin');
    expect(env.API_KEY).toBe('k');
    expect(env.HOME).toBe('/home/ada');
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });

  it('removes a variable whose override is undefined', () => {
    const env = buildChildEnvironment({ TERM: undefined }, { platform: 'linux', source: posixSource });
    expect('TERM' in env).toBe(false);
  });

  it('replaces a Windows default that differs only in case', () => {
    const env = buildChildEnvironment({ PATH: 'D:\\tools' }, { platform: 'win32', source: windowsSource });
    expect(env.PATH).toBe('D:\\tools');
    expect('Path' in env).toBe(false);
  });

  it('treats names case-sensitively on POSIX', () => {
    const env = buildChildEnvironment({ path: 'lower' }, { platform: 'linux', source: posixSource });
    expect(env.PATH).toBe('/usr/bin:/bin');
    expect(env.path).toBe('lower');
  });
});
