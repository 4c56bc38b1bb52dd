import { readdirSync, readFileSync } from 'node:fs';
import type { BatteryReading, TemperatureReading } from './source-types.js';

/** Driver names of hwmon chips that measure the CPU. */
const cpuChips =
  /^(coretemp|k10temp|k8temp|zenpower|cpu_thermal|cpu-thermal|soc_thermal|x86_pkg_temp|acpitz)$/;

interface SensorFile {
  path: string;
  label: string;
  cpu: boolean;
}

function readTrimmed(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The entries of a directory, or none when it cannot be read. */
export function listDirectory(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** Finds temperature inputs under `/sys/class/hwmon`, falling back to `/sys/class/thermal` zones. */
export function discoverLinuxTemperatureSensors(sysRoot = '/sys'): SensorFile[] {
  const sensors: SensorFile[] = [];
  for (const chip of listDirectory(`${sysRoot}/class/hwmon`)) {
    const directory = `${sysRoot}/class/hwmon/${chip}`;
    const chipName = readTrimmed(`${directory}/name`) ?? chip;
    for (const file of listDirectory(directory)) {
      const match = /^temp(\d+)_input$/.exec(file);
      if (!match) continue;
      const label = readTrimmed(`${directory}/temp${match[1]}_label`);
      sensors.push({
        path: `${directory}/${file}`,
        label: label ? `${chipName} ${label}` : `${chipName} ${match[1]}`,
        cpu: cpuChips.test(chipName),
      });
    }
  }
  if (sensors.length > 0) return sensors;
  for (const zone of listDirectory(`${sysRoot}/class/thermal`)) {
    if (!zone.startsWith('thermal_zone')) continue;
    const type = readTrimmed(`${sysRoot}/class/thermal/${zone}/type`) ?? zone;
    sensors.push({ path: `${sysRoot}/class/thermal/${zone}/temp`, label: type, cpu: cpuChips.test(type) });
  }
  return sensors;
}

/** Reads the discovered sensors (millidegrees in sysfs); unreadable or absurd values are left out. */
export function readLinuxTemperatures(sensors: readonly SensorFile[]): TemperatureReading[] {
  const readings: TemperatureReading[] = [];
  for (const sensor of sensors) {
    const raw = readTrimmed(sensor.path);
    const celsius = raw === null ? Number.NaN : Number(raw) / 1000;
    // Disconnected inputs report -273 or 0 on some boards: a reading outside this range is no reading.
    if (Number.isFinite(celsius) && celsius > 0 && celsius < 150) {
      readings.push({ label: sensor.label, celsius, cpu: sensor.cpu });
    }
  }
  return readings;
}

/**
 * Average current clock in MHz: cpufreq's `scaling_cur_freq` where the kernel has cpufreq,
 * otherwise the `cpu MHz` lines of `/proc/cpuinfo` (virtual machines); `null` when neither says.
 */
export function readLinuxCpuFrequencyMhz(sysRoot = '/sys', cpuinfoFile = '/proc/cpuinfo'): number | null {
  const values: number[] = [];
  for (const cpu of listDirectory(`${sysRoot}/devices/system/cpu`)) {
    if (!/^cpu\d+$/.test(cpu)) continue;
    const khz = Number(readTrimmed(`${sysRoot}/devices/system/cpu/${cpu}/cpufreq/scaling_cur_freq`) ?? '');
    if (khz > 0) values.push(khz / 1000);
  }
  if (values.length === 0) {
    for (const match of (readTrimmed(cpuinfoFile) ?? '').matchAll(/^cpu MHz\s*:\s*([\d.]+)/gm)) {
      const mhz = Number(match[1]);
      if (mhz > 0) values.push(mhz);
    }
  }
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** A number from a sysfs file, or null when it is missing or not a number. */
function readNumber(path: string): number | null {
  const text = readTrimmed(path);
  const value = text === null || text === '' ? Number.NaN : Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * The machine's battery from `/sys/class/power_supply` (the kernel's own numbers, no library):
 * the first system battery (a mouse's or a headset's, scope `Device`, is not the machine's), its
 * charge in percent, whether it is charging, whether a mains supply is online, and while it
 * discharges the minutes left at the present draw. Null without a battery.
 */
export function readLinuxBattery(sysRoot = '/sys'): BatteryReading | null {
  const base = `${sysRoot}/class/power_supply`;
  const supplies = listDirectory(base).sort();
  const type = (name: string) => readTrimmed(`${base}/${name}/type`);
  const battery = supplies.find(
    (name) =>
      type(name) === 'Battery' &&
      readTrimmed(`${base}/${name}/scope`) !== 'Device' &&
      readNumber(`${base}/${name}/present`) !== 0,
  );
  if (battery === undefined) return null;
  const at = (file: string) => readNumber(`${base}/${battery}/${file}`);
  // Batteries report energy (µWh, µW) or charge (µAh, µA), never both.
  const now = at('energy_now') ?? at('charge_now');
  const full = at('energy_full') ?? at('charge_full');
  const rate = at('power_now') ?? at('current_now');
  const percent = at('capacity') ?? (now !== null && full ? Math.round((now / full) * 100) : null);
  if (percent === null) return null;
  const status = readTrimmed(`${base}/${battery}/status`);
  const mains = supplies.filter((name) => type(name) === 'Mains');
  return {
    percent: Math.min(100, Math.max(0, percent)),
    charging: status === null || status === 'Unknown' ? null : status === 'Charging',
    acConnected: mains.length === 0 ? null : mains.some((name) => readNumber(`${base}/${name}/online`) === 1),
    timeRemainingMinutes:
      status === 'Discharging' && now !== null && rate ? Math.round((now / Math.abs(rate)) * 60) : null,
  };
}
