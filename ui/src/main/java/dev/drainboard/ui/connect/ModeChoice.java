package dev.drainboard.ui.connect;

/** The operator's choice on the connect screen; {@code AUTO} lets {@link ModePolicy} decide. */
public enum ModeChoice { AUTO, CONTROL, OBSERVE }
