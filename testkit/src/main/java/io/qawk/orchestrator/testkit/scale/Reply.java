package io.qawk.orchestrator.testkit.scale;

/** Status and JSON body (null: none) of one answer. */
record Reply(int status, byte[] body) {

    static Reply noContent() {
        return new Reply(204, null);
    }
}
