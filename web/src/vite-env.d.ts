/** The year of the build (vite.config.ts `define`): the prerendered footer's year. */
declare const __BUILD_YEAR__: number;
