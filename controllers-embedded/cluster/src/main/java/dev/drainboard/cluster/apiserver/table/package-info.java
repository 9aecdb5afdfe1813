/**
 * Server-side printing ({@code Table} responses): the columns kubectl shows for built-in and custom resources,
 * custom columns and JSONPath, ages in apimachinery's human duration format.
 */
package dev.drainboard.cluster.apiserver.table;
