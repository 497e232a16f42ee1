//! What serves traffic: Service, Ingress, APIService (gitops-engine's
//! health_service.go, health_ingress.go, health_apiservice.go).

use super::{condition, list, text, Health};
use serde_json::Value;

/// Healthy, except a load balancer still waiting for its address.
pub(super) fn service(service: &Value) -> Health {
    if text(service, &["spec", "type"]) == "LoadBalancer" {
        return addressed(service);
    }
    Health::Healthy
}

/// Healthy once the ingress controller has given it an address.
pub(super) fn ingress(ingress: &Value) -> Health {
    addressed(ingress)
}

fn addressed(object: &Value) -> Health {
    if list(object, &["status", "loadBalancer", "ingress"]).is_empty() {
        Health::Progressing
    } else {
        Health::Healthy
    }
}

/// Healthy when its `Available` condition is true; otherwise waiting.
pub(super) fn api_service(service: &Value) -> Health {
    match condition(service, "Available") {
        Some(available) if text(available, &["status"]) == "True" => Health::Healthy,
        _ => Health::Progressing,
    }
}
