package io.qawk.orchestrator.common;

import jakarta.enterprise.context.RequestScoped;

/**
 * What a command wants said beside it in the audit listing (an approval's comment): set by the resource during the
 * request, read by the audit's response filter after it; null for most commands.
 */
@RequestScoped
public class AuditNote {

    private String detail;

    public String detail() {
        return detail;
    }

    public void set(String detail) {
        this.detail = detail;
    }
}
