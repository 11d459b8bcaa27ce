package io.qawk.orchestrator.deployment.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.deployment.DeploymentRequest;
import io.qawk.orchestrator.deployment.DeploymentService;
import io.qawk.orchestrator.deployment.PlanReads;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.Transactional;

/**
 * The plan a deployment request would have, without storing anything: the request is checked and planned exactly as
 * {@link DeploymentService#create} and {@link PlanReads#plan} would for a draft, inside a transaction that is
 * then rolled back. So the screen can show the plan (and the API's field errors) before anything exists, and whatever
 * a draft's plan or the request learn later, the preview learns with them. The answer is the draft's plan without
 * {@code deploymentId}, since there is none.
 */
@ApplicationScoped
public class DeploymentPreview {

    @Inject
    DeploymentService deployments;

    @Inject
    PlanReads plans;

    @Inject
    TransactionManager transactions;

    @Inject
    ObjectMapper json;

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public ObjectNode plan(DeploymentRequest request, String actor) {
        try {
            SystemDeployment draft = deployments.create(request, actor);
            ObjectNode plan = json.valueToTree(plans.plan(draft.id));
            plan.remove("deploymentId");
            return plan;
        } finally {
            rollBack();
        }
    }

    private void rollBack() {
        try {
            transactions.setRollbackOnly();
        } catch (SystemException e) {
            throw new IllegalStateException("the preview's transaction cannot be rolled back", e);
        }
    }
}
