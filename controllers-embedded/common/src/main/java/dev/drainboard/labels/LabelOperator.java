package dev.drainboard.labels;

/** The operators of a label requirement (apimachinery's selection.Operator). */
enum LabelOperator {
    IN, NOT_IN, EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN, EXISTS, DOES_NOT_EXIST;

    /** The operators that take values, as apimachinery names them when it expected one. */
    static final String BINARY_OPERATOR_LIST = "in, notin, =, ==, !=, gt, lt";
}
