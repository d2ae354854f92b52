// `paddock-rig install` / `uninstall` (issue 43, decision 0121): the agent starts at logon in the
// game's own user session (a visible desktop: the game shows and the pairing code can be read;
// never session 0), restarted by Task Scheduler when it fails. The executable is copied into the
// user's own profile first, where it can update itself without administrator rights.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const TASK_NAME = 'Paddock Rig Agent';

export interface TaskOptions {
  /** DOMAIN\user: the account that logs on to play (the task runs as it, in its session). */
  user: string;
  command: string;
  args: string[];
  workingDir: string;
}

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One argument as Windows' command line parser reads it back (CommandLineToArgvW rules). */
export function quoteArg(arg: string) {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/** The task, in Task Scheduler's XML (schema 1.2, Windows Vista and later). */
export function taskXml(o: TaskOptions) {
  return `<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Description>Paddock's rig agent: follows this seat in Paddock and starts the sim.</Description>
  </RegistrationInfo>
  <Triggers>
    <LogonTrigger>
      <Enabled>true</Enabled>
      <UserId>${xml(o.user)}</UserId>
    </LogonTrigger>
  </Triggers>
  <Principals>
    <Principal id="Author">
      <UserId>${xml(o.user)}</UserId>
      <LogonType>InteractiveToken</LogonType>
      <RunLevel>LeastPrivilege</RunLevel>
    </Principal>
  </Principals>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <AllowHardTerminate>true</AllowHardTerminate>
    <StartWhenAvailable>true</StartWhenAvailable>
    <RunOnlyIfNetworkAvailable>false</RunOnlyIfNetworkAvailable>
    <IdleSettings>
      <StopOnIdleEnd>false</StopOnIdleEnd>
      <RestartOnIdle>false</RestartOnIdle>
    </IdleSettings>
    <AllowStartOnDemand>true</AllowStartOnDemand>
    <Enabled>true</Enabled>
    <Hidden>false</Hidden>
    <RunOnlyIfIdle>false</RunOnlyIfIdle>
    <WakeToRun>false</WakeToRun>
    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>
    <Priority>7</Priority>
    <RestartOnFailure>
      <Interval>PT1M</Interval>
      <Count>255</Count>
    </RestartOnFailure>
  </Settings>
  <Actions Context="Author">
    <Exec>
      <Command>${xml(o.command)}</Command>
      <Arguments>${xml(o.args.map(quoteArg).join(' '))}</Arguments>
      <WorkingDirectory>${xml(o.workingDir)}</WorkingDirectory>
    </Exec>
  </Actions>
</Task>
`;
}

/** schtasks reads a task file as UTF-16 with its byte order mark. */
export function taskFileBytes(text: string) {
  return Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(text.replace(/\n/g, '\r\n'), 'utf16le'),
  ]);
}

/** schtasks' arguments: create (replacing one of the same name), run now, delete. */
export const schtasks = {
  create: (file: string) => ['/Create', '/TN', TASK_NAME, '/XML', file, '/F'],
  run: () => ['/Run', '/TN', TASK_NAME],
  remove: () => ['/Delete', '/TN', TASK_NAME, '/F'],
};

/** Where the agent lives once installed: the user's own profile (it may replace itself there). */
export function installDir(env: NodeJS.ProcessEnv = process.env) {
  const local = env.LOCALAPPDATA ?? path.win32.join(env.USERPROFILE ?? '', 'AppData', 'Local');
  return path.win32.join(local, 'Paddock');
}

const run = (args: string[]) =>
  new Promise<void>((resolve, reject) =>
    execFile('schtasks', args, (err, stdout, stderr) =>
      err
        ? reject(new Error(`schtasks ${args[0]}: ${stderr || stdout || err.message}`))
        : resolve(),
    ),
  );

/** Copies the running executable into the profile, registers the logon task and starts it. */
export async function install(args: string[], log: (line: string) => void) {
  if (process.platform !== 'win32') throw new Error('install is for Windows PCs.');
  const dir = installDir();
  const exe = path.win32.join(dir, 'paddock-rig.exe');
  fs.mkdirSync(dir, { recursive: true });
  if (path.resolve(process.execPath).toLowerCase() !== exe.toLowerCase())
    fs.copyFileSync(process.execPath, exe);
  const user = `${process.env.USERDOMAIN ?? '.'}\\${process.env.USERNAME ?? ''}`;
  const file = path.win32.join(dir, 'task.xml');
  fs.writeFileSync(file, taskFileBytes(taskXml({ user, command: exe, args, workingDir: dir })));
  await run(schtasks.create(file));
  log(`installed: ${exe} starts when ${user} logs on ("${TASK_NAME}" in Task Scheduler)`);
  await run(schtasks.run());
  log('started: it shows its pairing code in its own window');
}

export async function uninstall(log: (line: string) => void) {
  if (process.platform !== 'win32') throw new Error('uninstall is for Windows PCs.');
  await run(schtasks.remove());
  log(`uninstalled: "${TASK_NAME}" removed; ${installDir()} and the stored key stay`);
}
