const KEY = 'macstats.theme';

type Theme = 'light' | 'dark';

function systemTheme(): Theme {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The theme in use: the one chosen with the button, else the system's. */
export function currentTheme(): Theme {
  const stored = localStorage.getItem(KEY);
  return stored === 'light' || stored === 'dark' ? stored : systemTheme();
}

/** Applies the theme and wires the toggle button; `onChange` lets charts recolour. */
export function setupTheme(button: HTMLButtonElement, onChange: () => void): void {
  const apply = () => {
    const theme = currentTheme();
    document.documentElement.dataset['theme'] = theme;
    button.textContent = theme === 'dark' ? '☀' : '☾';
    button.title = theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme';
    button.setAttribute('aria-label', button.title);
    onChange();
  };
  button.addEventListener('click', () => {
    localStorage.setItem(KEY, currentTheme() === 'dark' ? 'light' : 'dark');
    apply();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', apply);
  apply();
}

/** Reads a CSS colour variable of the current theme (charts draw on canvas, outside CSS). */
export function themeColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}
