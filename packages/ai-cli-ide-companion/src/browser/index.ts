// The commands IDE mode contributes, for extensions that add them to their own menus or toolbars.
export * from './companion-commands';
