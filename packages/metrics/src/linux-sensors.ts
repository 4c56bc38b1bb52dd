import { readdirSync, readFileSync } from 'node:fs';
import type { TemperatureReading } from './source-types.js';

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

function listDirectory(path: string): string[] {
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
