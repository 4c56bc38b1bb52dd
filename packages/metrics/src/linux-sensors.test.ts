import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  discoverLinuxTemperatureSensors,
  readLinuxCpuFrequencyMhz,
  readLinuxTemperatures,
} from './linux-sensors.js';

let root: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'metrics-sys-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('Linux temperature sensors', () => {
  it('finds none on a machine without hwmon or thermal zones', () => {
    expect(discoverLinuxTemperatureSensors(root)).toEqual([]);
  });

  it('reads hwmon inputs in degrees with their labels and marks CPU chips', () => {
    write('class/hwmon/hwmon0/name', 'coretemp\n');
    write('class/hwmon/hwmon0/temp1_input', '61000\n');
    write('class/hwmon/hwmon0/temp1_label', 'Package id 0\n');
    write('class/hwmon/hwmon1/name', 'nvme\n');
    write('class/hwmon/hwmon1/temp1_input', '44850\n');
    const readings = readLinuxTemperatures(discoverLinuxTemperatureSensors(root));
    expect(readings).toEqual([
      { label: 'coretemp Package id 0', celsius: 61, cpu: true },
      { label: 'nvme 1', celsius: 44.85, cpu: false },
    ]);
  });

  it('leaves out a disconnected input that reads zero or absurd values', () => {
    write('class/hwmon/hwmon0/name', 'it8728\n');
    write('class/hwmon/hwmon0/temp1_input', '0\n');
    write('class/hwmon/hwmon0/temp2_input', '-273000\n');
    expect(readLinuxTemperatures(discoverLinuxTemperatureSensors(root))).toEqual([]);
  });

  it('falls back to thermal zones when there is no hwmon', () => {
    write('class/thermal/thermal_zone0/type', 'x86_pkg_temp\n');
    write('class/thermal/thermal_zone0/temp', '55000\n');
    expect(readLinuxTemperatures(discoverLinuxTemperatureSensors(root))).toEqual([
      { label: 'x86_pkg_temp', celsius: 55, cpu: true },
    ]);
  });
});

describe('Linux CPU clock', () => {
  it('averages cpufreq scaling_cur_freq across cores', () => {
    write('devices/system/cpu/cpu0/cpufreq/scaling_cur_freq', '2000000\n');
    write('devices/system/cpu/cpu1/cpufreq/scaling_cur_freq', '3000000\n');
    expect(readLinuxCpuFrequencyMhz(root, join(root, 'missing'))).toBe(2500);
  });

  it('falls back to the cpu MHz lines of cpuinfo in a virtual machine', () => {
    write('cpuinfo', 'processor\t: 0\ncpu MHz\t\t: 2299.998\nprocessor\t: 1\ncpu MHz\t\t: 2299.998\n');
    expect(readLinuxCpuFrequencyMhz(root, join(root, 'cpuinfo'))).toBe(2299.998);
  });

  it('is null, not zero, when neither says', () => {
    expect(readLinuxCpuFrequencyMhz(root, join(root, 'missing'))).toBeNull();
  });
});
