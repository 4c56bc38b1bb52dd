import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  discoverLinuxTemperatureSensors,
  readLinuxBattery,
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

describe('Linux battery', () => {
  const supply = (name: string, files: Record<string, string>) => {
    for (const [file, content] of Object.entries(files))
      write(`class/power_supply/${name}/${file}`, `${content}\n`);
  };

  it('is null on a machine without one, and leaves out a mouse', () => {
    expect(readLinuxBattery(root)).toBeNull();
    supply('AC', { type: 'Mains', online: '1' });
    supply('hidpp_battery_0', { type: 'Battery', scope: 'Device', capacity: '40', status: 'Discharging' });
    expect(readLinuxBattery(root)).toBeNull();
  });

  it('reads a discharging laptop battery by energy: percent, no charge, off mains, minutes left', () => {
    supply('AC', { type: 'Mains', online: '0' });
    supply('BAT0', {
      type: 'Battery',
      present: '1',
      status: 'Discharging',
      capacity: '57',
      energy_now: '30000000',
      energy_full: '52000000',
      power_now: '10000000',
    });
    expect(readLinuxBattery(root)).toEqual({
      percent: 57,
      charging: false,
      acConnected: false,
      timeRemainingMinutes: 180,
    });
  });

  it('reads a charging battery by charge, its percent worked out when capacity is missing', () => {
    supply('ADP1', { type: 'Mains', online: '1' });
    supply('BAT1', {
      type: 'Battery',
      status: 'Charging',
      charge_now: '2500000',
      charge_full: '5000000',
      current_now: '-1500000',
    });
    expect(readLinuxBattery(root)).toEqual({
      percent: 50,
      charging: true,
      acConnected: true,
      timeRemainingMinutes: null,
    });
  });

  it('says unknown, not false, where the kernel does not say', () => {
    supply('BAT0', { type: 'Battery', capacity: '100', status: 'Unknown' });
    expect(readLinuxBattery(root)).toEqual({
      percent: 100,
      charging: null,
      acConnected: null,
      timeRemainingMinutes: null,
    });
  });
});
