/**
 * Test kit: a JUnit 5 extension with a real ensemble per test class, a fault kit and history checkers.
 */
package dev.baton.test;
