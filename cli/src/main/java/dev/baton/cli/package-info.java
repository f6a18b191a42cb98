/**
 * The {@code baton} command.
 */
package dev.baton.cli;
