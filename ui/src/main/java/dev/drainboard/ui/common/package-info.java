/**
 * Building blocks every screen uses and that know no screen: the live table with its filter and details pane
 * ({@link dev.drainboard.ui.common.TableScreen}), badges, icons, formats, the dialog layer and the toasts.
 */
package dev.drainboard.ui.common;
