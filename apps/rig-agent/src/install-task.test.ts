// The logon task `paddock-rig install` registers (decision 0121): what Task Scheduler reads.
// Whether Windows accepts and runs it is seen on a real Windows only (docs/rigs.md).
import { describe, expect, it } from 'vitest';
import { installDir, quoteArg, schtasks, taskFileBytes, taskXml, TASK_NAME } from './install-task';

const task = taskXml({
  user: 'SIM-03\\racer',
  command: 'C:\\Users\\racer\\AppData\\Local\\Paddock\\paddock-rig.exe',
  args: ['--server', 'https://book.example.com', '--launch-arg', 'a "quoted" & <odd> arg'],
  workingDir: 'C:\\Users\\racer\\AppData\\Local\\Paddock',
});
const element = (name: string) =>
  [...task.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

describe('the logon task', () => {
  it("starts at the user's logon, in that user's own session, without elevation, restarting on failure", () => {
    expect(task).toContain('<LogonTrigger>');
    expect(element('UserId')).toEqual(['SIM-03\\racer', 'SIM-03\\racer']);
    // InteractiveToken: only while that user is logged on, on their desktop (never session 0).
    expect(element('LogonType')).toEqual(['InteractiveToken']);
    expect(element('RunLevel')).toEqual(['LeastPrivilege']);
    expect(element('Hidden')).toEqual(['false']);
    // Runs for as long as the PC is on; one copy at a time.
    expect(element('ExecutionTimeLimit')).toEqual(['PT0S']);
    expect(element('MultipleInstancesPolicy')).toEqual(['IgnoreNew']);
    expect(element('DisallowStartIfOnBatteries')).toEqual(['false']);
    // Restart on failure: every minute (the schema's least), up to 255 times (its most).
    expect(task).toMatch(
      /<RestartOnFailure>\s*<Interval>PT1M<\/Interval>\s*<Count>255<\/Count>\s*<\/RestartOnFailure>/,
    );
  });

  it('starts the installed executable with the arguments install was given, escaped for XML and Windows', () => {
    expect(element('Command')).toEqual([
      'C:\\Users\\racer\\AppData\\Local\\Paddock\\paddock-rig.exe',
    ]);
    expect(element('WorkingDirectory')).toEqual(['C:\\Users\\racer\\AppData\\Local\\Paddock']);
    expect(element('Arguments')).toEqual([
      '--server https://book.example.com --launch-arg &quot;a \\&quot;quoted\\&quot; &amp; &lt;odd&gt; arg&quot;',
    ]);
    expect(quoteArg('C:\\Program Files\\x\\')).toBe('"C:\\Program Files\\x\\\\"');
    expect(quoteArg('')).toBe('""');
    expect(quoteArg('plain')).toBe('plain');
  });

  it('is written as UTF-16 with its byte order mark and CRLF, as schtasks /XML reads it', () => {
    const bytes = taskFileBytes(task);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const text = bytes.subarray(2).toString('utf16le');
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-16"?>\r\n<Task version="1.2"')).toBe(
      true,
    );
    expect(text.replace(/\r\n/g, '\n')).toBe(task);
  });

  it('is made, started and removed by name', () => {
    expect(schtasks.create('C:\\p\\task.xml')).toEqual([
      '/Create',
      '/TN',
      TASK_NAME,
      '/XML',
      'C:\\p\\task.xml',
      '/F',
    ]);
    expect(schtasks.run()).toEqual(['/Run', '/TN', TASK_NAME]);
    expect(schtasks.remove()).toEqual(['/Delete', '/TN', TASK_NAME, '/F']);
    expect(installDir({ LOCALAPPDATA: 'C:\\Users\\racer\\AppData\\Local' })).toBe(
      'C:\\Users\\racer\\AppData\\Local\\Paddock',
    );
  });
});
