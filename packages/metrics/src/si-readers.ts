import { cpus } from 'node:os';
import type { Systeminformation } from 'systeminformation';
import type { BatteryReading, CpuReading, GpuReading, TemperatureReading } from './source-types.js';

type SystemInformation = typeof import('systeminformation');

let loading: Promise<SystemInformation> | undefined;

/**
 * Loads systeminformation on first use: importing it costs tens of milliseconds of CPU, which
 * the Linux source only pays if it ever asks for a GPU.
 */
export function loadSystemInformation(): Promise<SystemInformation> {
  loading ??= import('systeminformation').then((module) => module.default ?? module);
  return loading;
}

/** Bytes from systeminformation's megabytes, or `null` when the driver did not say. */
function megabytes(value: number | null | undefined): number | null {
  return typeof value === 'number' && value >= 0 && Number.isFinite(value) ? value * 1024 * 1024 : null;
}

/** A measurement systeminformation reports, or `null` for its stand-ins for "unknown" (undefined, -1, NaN). */
export function measured(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The battery through systeminformation (sysfs on Linux, `ioreg` on macOS, WMI on Windows). */
export async function readBatteryWithSystemInformation(): Promise<BatteryReading | null> {
  const data = await (await loadSystemInformation()).battery();
  if (!data.hasBattery) return null;
  return {
    percent: data.percent,
    charging: typeof data.isCharging === 'boolean' ? data.isCharging : null,
    acConnected: typeof data.acConnected === 'boolean' ? data.acConnected : null,
    timeRemainingMinutes: measured(data.timeRemaining),
  };
}

/** Graphics processors through systeminformation; load and memory come from `nvidia-smi` where present. */
export async function readGpusWithSystemInformation(): Promise<GpuReading[]> {
  const data = await (await loadSystemInformation()).graphics();
  return data.controllers.map((controller: Systeminformation.GraphicsControllerData) => ({
    model: controller.model || controller.name || 'unknown',
    vendor: controller.vendor || null,
    utilizationPercent: measured(controller.utilizationGpu),
    memoryUsedBytes: megabytes(controller.memoryUsed),
    memoryTotalBytes: megabytes(controller.memoryTotal ?? controller.vram),
    temperatureCelsius: measured(controller.temperatureGpu) || null,
  }));
}

/** CPU temperatures through systeminformation. */
export async function readTemperaturesWithSystemInformation(): Promise<TemperatureReading[]> {
  const data = await (await loadSystemInformation()).cpuTemperature();
  const readings: TemperatureReading[] = [];
  const add = (label: string, value: number | null | undefined, cpu: boolean) => {
    if (typeof value === 'number' && value > 0 && value < 150) readings.push({ label, celsius: value, cpu });
  };
  add('CPU', data.main, true);
  data.cores.forEach((value, index) => {
    add(`core ${index}`, value, true);
  });
  data.socket?.forEach((value, index) => {
    add(`socket ${index}`, value, true);
  });
  add('chipset', data.chipset, false);
  return readings;
}

/** Per-core CPU times from Node's `os.cpus()`, which every platform supports. */
export function readCpuWithOs(): CpuReading {
  const cores = cpus().map(({ times }) => {
    const busy = times.user + times.nice + times.sys + times.irq;
    return { busy, total: busy + times.idle };
  });
  const total = cores.reduce((sum, core) => ({ busy: sum.busy + core.busy, total: sum.total + core.total }), {
    busy: 0,
    total: 0,
  });
  return { total, cores };
}

/** Core count and model from `os.cpus()`. */
export function readCpuInfoWithOs(): { cores: number; model: string | null } {
  const list = cpus();
  return { cores: list.length, model: list[0]?.model.trim() || null };
}
